// /orders (§2.2, §2.5): the tabs of the order menu; the pages themselves live in src/app/orders.
import { TabsLayout } from './TabsLayout';

export { ActiveLabelsPage as LabelsActivePage, LabelsNewPage } from '../orders/LabelPages';
export { OrdersHistoryPage, OrdersNewPage, OrdersPendingPage } from '../orders/OrderPages';

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
