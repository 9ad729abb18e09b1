import { createFileRoute } from '@tanstack/react-router';
import { OrdersPendingPage } from '../../../pages/orders';

export const Route = createFileRoute('/_app/orders/pending')({
  component: OrdersPendingPage,
});
