import { createFileRoute } from '@tanstack/react-router';
import { OrdersNewPage } from '../../../pages/orders';

export const Route = createFileRoute('/_app/orders/new')({
  component: OrdersNewPage,
});
