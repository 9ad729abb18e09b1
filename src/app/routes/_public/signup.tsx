import { createFileRoute } from '@tanstack/react-router';
import { SignUpPage } from '../../auth/SignUpPage';

export const Route = createFileRoute('/_public/signup')({ component: SignUpPage });
