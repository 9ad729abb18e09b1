import { createFileRoute } from '@tanstack/react-router';
import { OrdersPendingPage } from '../../../orders/OrdersPendingPage';

export const Route = createFileRoute('/_app/orders/pending')({
  component: OrdersPendingPage,
});
