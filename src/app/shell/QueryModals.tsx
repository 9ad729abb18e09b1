// The query-parameter modals of spec §2.3 that open over the current page (?bugreport, …). Closing
// one removes its parameter and keeps the rest of the URL.
import { useNavigate, useSearch } from '@tanstack/react-router';
import { ReportIssueDialog } from './ReportIssueDialog';
import { NewStudyModal } from '../studies/NewStudyModal';
import { FixUploadModal } from '../uploads/FixUploadModal';
import { FixCreateUploadModal } from '../uploads/FixCreateUploadModal';
import { RequestReviewModal } from '../reviews/RequestReviewModal';

export function QueryModals() {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const navigate = useNavigate();
  const close = (key: string) => {
    const url = new URL(window.location.href);
    url.searchParams.delete(key);
    void navigate({ href: `${url.pathname}${url.search}`, replace: true });
  };
  return (
    <>
      <ReportIssueDialog opened={search.bugreport !== undefined} onClose={() => close('bugreport')} />
      <NewStudyModal opened={search['new-study'] !== undefined} onClose={() => close('new-study')} />
      <FixUploadModal fileId={search.fixUpload as string | undefined} onClose={() => close('fixUpload')} />
      <FixCreateUploadModal
        fileId={search.fixCreateUpload as string | undefined}
        onClose={() => close('fixCreateUpload')}
      />
      <RequestReviewModal
        opened={search['request-review'] !== undefined}
        studyId={studyToReview(search['request-review'])}
        onClose={() => close('request-review')}
      />
    </>
  );
}

/** `?request-review={studyId}` starts the Request Review dialog from a study. */
const studyToReview = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
