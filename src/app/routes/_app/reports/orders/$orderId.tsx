import { createFileRoute } from '@tanstack/react-router';
import { OrderReport } from '../../../../orders/print/OrderReport';

export const Route = createFileRoute('/_app/reports/orders/$orderId')({
  component: C,
});

function C() {
  const { orderId } = Route.useParams();
  return <OrderReport orderId={orderId} />;
}
