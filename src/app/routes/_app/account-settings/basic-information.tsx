import { createFileRoute } from '@tanstack/react-router';
import { BasicInformationPage } from '../../../account/BasicInformationPage';

export const Route = createFileRoute('/_app/account-settings/basic-information')({
  component: BasicInformationPage,
});
