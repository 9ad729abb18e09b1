import { createFileRoute } from '@tanstack/react-router';
import { ForgotPasswordPage } from '../../auth/ForgotPasswordPage';

export const Route = createFileRoute('/_public/fp')({ component: ForgotPasswordPage });
