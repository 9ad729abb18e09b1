import { createFileRoute } from '@tanstack/react-router';
import { OrdersNewPage } from '../../../orders/OrdersNewPage';

export const Route = createFileRoute('/_app/orders/new')({
  component: OrdersNewPage,
});
