// /orders/history (§2.5): orders whose images are all completed, or whose processing failed.
import { OrderListPage } from './OrderListPage';

export const OrdersHistoryPage = () => (
  <OrderListPage
    title="Order History"
    subtitle="Orders whose images are all completed, or whose processing failed."
    statuses={['fulfilled', 'failed']}
  />
);
