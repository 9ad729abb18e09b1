import { createFileRoute } from '@tanstack/react-router';
import { OrdersHistoryPage } from '../../../pages/orders';

export const Route = createFileRoute('/_app/orders/history')({
  component: OrdersHistoryPage,
});
