import { createFileRoute } from '@tanstack/react-router';
import { PictorAdminPage } from '../../../../admin/PictorAdminPage';

export const Route = createFileRoute('/_app/administrator/pictor-admin/')({
  component: PictorAdminPage,
});
