import { createFileRoute } from '@tanstack/react-router';
import { OrderReport } from '../../../../orders/print/OrderReport';
import { orderHistoryQuery } from '../../../../orders/queries';

export const Route = createFileRoute('/_app/reports/orders/$orderId')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(orderHistoryQuery(params.orderId));
  },
  component: OrderReportComponent,
});

function OrderReportComponent() {
  const { orderId } = Route.useParams();
  return <OrderReport orderId={orderId} />;
}
