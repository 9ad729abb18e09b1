import { createFileRoute } from '@tanstack/react-router';
import { OrdersLayout } from '../../pages/orders';

export const Route = createFileRoute('/_app/orders')({
  component: OrdersLayout,
});
