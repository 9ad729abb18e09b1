// /orders (§2.2, §2.5): the tabs of the order menu; each tab is a page of this folder.
import { TabsLayout } from '../shell/TabsLayout';

export const OrdersLayout = () => (
  <TabsLayout
    title="Orders"
    base="/orders"
    tabs={[
      ['slides/new', 'Generate Slide Labels'],
      ['slides/active', 'Active Labels'],
      ['new', 'Generate Orders'],
      ['pending', 'Pending Orders'],
      ['history', 'Order History'],
    ]}
  />
);
