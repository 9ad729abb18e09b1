import { createFileRoute } from '@tanstack/react-router';
import { OrdersLayout } from '../../orders/OrdersLayout';

export const Route = createFileRoute('/_app/orders')({
  component: OrdersLayout,
});
