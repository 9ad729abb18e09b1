// /administrator/annotation-classes: the selected organization's annotation classes.
import { createFileRoute } from '@tanstack/react-router';
import { AnnotationClassesPage } from '../../../admin/AnnotationClassesPage';

export const Route = createFileRoute('/_app/administrator/annotation-classes')({
  component: AnnotationClassesPage,
});
