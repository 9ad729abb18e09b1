import { createFileRoute } from '@tanstack/react-router';
import { OrdersHistoryPage } from '../../../orders/OrdersHistoryPage';

export const Route = createFileRoute('/_app/orders/history')({
  component: OrdersHistoryPage,
});
