// /orders/pending (§2.5): orders placed and not finished yet.
import { OrderListPage } from './OrderListPage';

export const OrdersPendingPage = () => (
  <OrderListPage
    title="Pending Orders"
    subtitle="Orders placed and waiting for their slide's images, or being processed."
    statuses={['inactive', 'active', 'processing']}
  />
);
