// Every user-facing text the spec gives (§5, §8, §2), verbatim, in one place: server and app import
// these rather than repeating literals (STYLE §4). The texts of errors the API answers are entries of
// the catalogue (./errors.ts); the names below are how the access rules and the app's tooltips use them.
import { errorText } from './errors';

/** The denial texts of §5 (the API's 403 answers and the app's tooltips), and the tooltips' hints. */
export const Denied = {
  deleteOwnOrganization: errorText('DENIED_DELETE_OWN_ORGANIZATION'),
  deleteYourself: errorText('DENIED_DELETE_YOURSELF'),
  scanGroupsForYourself: errorText('DENIED_SCAN_GROUPS_FOR_OTHERS'),
  scanOrdersForYourself: errorText('DENIED_SCAN_ORDERS_FOR_OTHERS'),
  reviewsForYourself: errorText('DENIED_REVIEWS_FOR_OTHERS'),
  annotationsForYourself: errorText('DENIED_ANNOTATIONS_FOR_OTHERS'),
  studiesForYourself: errorText('DENIED_STUDIES_FOR_OTHERS'),
  imagesForYourself: errorText('DENIED_IMAGES_FOR_OTHERS'),
  downloadActiveImages: errorText('DENIED_DOWNLOAD_INACTIVE'),
  uploadActiveImages: errorText('DENIED_UPLOAD_INACTIVE'),
  updateStatusActiveImages: errorText('DENIED_STATUS_INACTIVE'),
  updateDisplayStatusActiveImages: errorText('DENIED_DISPLAY_STATUS_INACTIVE'),
  noCreatePermission: errorText('DENIED_CREATE'),
  noLabelPermission: errorText('DENIED_CREATE_LABEL'),
  noOrderPermission: errorText('DENIED_CREATE_ORDER'),
  noReviewPermission: errorText('DENIED_REQUEST_REVIEW'),
  noStudyPermission: errorText('DENIED_CREATE_STUDY'),
  contactAdmin: 'Please contact your organization administrator to request access.',
  noOrganizations: 'There are not organizations available to you',
} as const;

export const Session = {
  refreshFailed: 'We are unable to refresh your token. Please log in again.',
  /** The refresh token lapsed: the local data stays readable, nothing is sent until the user signs in. */
  signInToSync: 'Sign in again to sync',
  signInToSyncDetail:
    'Your sign-in on this device has expired. Your data on this device stays readable and your changes are kept here; they are sent after you sign in.',
  signInToSyncOffline: 'You are offline: sign in again once you are back online.',
  signInAgain: 'Sign in',
  keepWorkingHere: 'Keep working on this device',
  resuming: 'Resuming session...',
  loading: 'Loading...',
  noQueryClient: 'No QueryClient set, use QueryClientProvider to set one',
} as const;

export const UNKNOWN_ERROR = 'An unknown error occurred';

export const Report = {
  title: 'Report Issue',
  placeholder: 'Please describe your issue...',
  tooShort: 'Message needs to at least 1 characters long',
  submitted: 'Your report has been submitted',
} as const;

export const StudyText = {
  creating: 'Creating Study',
  created: 'Study Created',
  createError: 'Error creating study',
  renameFailed: 'Failed to update the study name',
  removeSlideFailed: 'Failed to remove the slide',
  noImages: 'Images not found',
  noAvailableSlide: 'Study has not avaliable slide (image)',
  removeUserConfirm: 'Are you sure you want to remove this user from the study?',
  removeOrgConfirm: 'Are you sure you want to remove this organization from the study?',
} as const;

export const Toasts = {
  sharingStudy: 'Sharing study...',
  removingOrganization: 'Removing organization...',
  removingMember: 'Removing member...',
  deletingStudy: 'Deleting study...',
  sharingImage: 'Sharing image...',
  studyShared: 'Study Shared',
  studySharedText: (name: string) => `Study ${name} has been shared successfully`,
  organizationRemoved: 'Organization Removed',
  memberRemoved: 'Member Removed',
  studyDeleted: (name: string) => `Study ${name} Deleted`,
  studyDeletedText: 'The study has been deleted successfully',
  imageShared: 'Image Shared',
  slideRemoved: 'Slide Removed from Study',
  imagesReplicated: 'Images Replicated',
  errorSharingStudy: 'Error sharing study',
  errorRemovingOrganization: 'Error removing organization',
  errorRemovingMember: 'Error removing member',
  failedDeleteStudy: 'Failed to delete study',
  errorSharingImage: 'Error sharing image',
  failedDeleteSlide: 'Failed to delete slide',
  failedReplicate: 'Failed to replicate images',
  failedArchive: 'Failed to archive slide',
  failedReactivate: 'Failed to active archived slide',
  requestingReview: 'Requesting review...',
  reviewRequested: 'Review Requested',
  reviewRequestedText: (names: string) => `${names} received your review request.`,
  error: 'Error',
} as const;

export const UploadText = {
  invalidFile: 'Invalid file',
  incompatibleFormat: errorText('INCOMPATIBLE_FILE_FORMAT'),
  invalidChannel: 'Invalid channel value. Please make sure the channels are specified correctly.',
  incomplete: 'Upload Incomplete',
  noLabel: 'No Label Associated',
  canceled: 'Canceled',
  labelUnreadable: 'Upload Failed: The slide label for an image could not be read.',
  slowSpeed:
    'Warning your internet speed is below a recommended 1Mb/s. Please consider upgrading your internet speed.',
  cancelTitle: 'Cancel image upload?',
  estimating: 'Estimating...',
} as const;

export const Misc = {
  emailNotAvailable: 'Email not available',
  emailCopied: 'Email copied!',
  unavailableUser: 'Unavailable User',
  /** Ours, beside the spec's 'Unavailable User': an organization the local store does not know. */
  unavailableOrganization: 'Unavailable Organization',
  imageNotAvailable: 'Image is not available',
  /** Ours: an image whose tiles were never opened on this device, while offline. */
  imageOffline: 'This image has not been opened on this device yet: it shows when you are back online.',
  imageNotReadyToDownload: 'Image is not ready to download',
  /** Ours: the viewer, while tiles far from full resolution wait for the slide's pyramid (TILE_NOT_READY). */
  tilesNotReady:
    'This slide is still being processed: zoom in to see it at full resolution now; the overview shows as soon as it is ready.',
  resultsNotFound: 'Results Not Found',
  noOptions: 'No options',
  selectAnimalFirst: 'Select an animal first',
} as const;

/** Messages of our own where the spec is silent (docs/decisions.md); sign-in errors are in ./errors.ts. */
export const AuthText = {
  weakPassword: 'The password must be at least 8 characters long',
  resetSent: 'If an account exists for that e-mail, a reset link has been sent.',
} as const;

/** §8 message extraction: string as is; Error/object message; array's first string; else unknown. */
export function extractMessage(error: unknown): string {
  if (typeof error === 'string') return error;
  if (Array.isArray(error)) {
    const first = error.find((e) => typeof e === 'string');
    return typeof first === 'string' ? first : UNKNOWN_ERROR;
  }
  if (error && typeof error === 'object' && 'message' in error) {
    const m = (error as { message: unknown }).message;
    if (typeof m === 'string' && m) return m;
    if (Array.isArray(m)) return extractMessage(m);
  }
  return UNKNOWN_ERROR;
}

/** Reviews, QC and reports: our texts where the spec is silent (docs/decisions.md). */
export const ReviewQcText = {
  decisionRolledBack: 'Your QC decision was not saved',
  selectSlides: 'Select at least one slide',
  fillReviewers: 'Choose a reviewer in every slot',
  saving: 'Saving...',
  saved: 'Saved',
  /** A review change kept on the device until the server takes it. */
  savedOnDevice: 'Saved on this device, will sync',
  reviewNotSaved: 'Your review was not saved',
  completeReview: 'Complete review',
  reviewComment: 'Review comment',
  noStudy: 'No study',
} as const;

/** Regions drawn on a slide in the viewer: texts of our own (docs/decisions.md). */
export const AnnotationUiText = {
  region: 'Region',
  drawRegion: 'Draw region',
  cancelDrawing: 'Cancel drawing',
  drawHint: 'Drag over the slide to outline a region (Esc cancels)',
  hideRegions: 'Hide regions',
  showRegions: 'Show regions',
  newRegion: 'New region',
  saveRegion: 'Save region',
  /** A region the server refused, said where it was drawn; the server's reason follows. */
  regionNotSaved: (name?: string) => (name ? `Region "${name}" was not saved` : 'Your region was not saved'),
  discard: 'Discard',
} as const;

/** Administration, setup and account screens: texts of our own (docs/decisions.md). */
export const AdminText = {
  resendInvitation: 'Resend invitation',
  removeUserTitle: 'Remove user',
  removeUserConfirm: (name: string) =>
    `Remove ${name}? They will no longer be able to sign in. What they created stays in the organization.`,
  invitationSent: (email: string) => `Invitation sent to ${email}`,
  saved: 'Changes saved',
  savedOffline: 'Saved on this device. It will be sent when you are back online.',
  notAvailable: 'Not available to this organization',
  notInParent: 'Not available to the parent organization',
  superAdminOnly: 'Only a super admin can grant this policy',
  notEnabledByOrganization: 'Not enabled by your organization',
  noAccess: 'You do not have access to this area',
  organizationCreated: (name: string) => `Organization ${name} created; its administrator has been invited`,
  teamCreated: (name: string) => `Team ${name} created`,
  changeRequested: 'Your request has been sent to your administrators',
  passwordChanged: 'Your password has been changed.',
} as const;

/** Print a Report (§2.10) and the printable reports: our texts where the spec is silent. */
export const ReportText = {
  dialogTitle: 'Print a Report',
  dialogIntro: 'Each report opens in a new tab and prints once its images have loaded.',
  slideReport: 'Slide Report',
  slideReportText: 'Scan details, images and layers of this slide.',
  labelReport: 'Label Report',
  labelReportText: 'Slide details and its label.',
  studyReport: 'Study Report',
  studyReportText: 'The study, its slides and assays.',
  qcReport: 'QC Report',
  qcReportText: 'Quality-check results for all slides of the study.',
  noPrintPermission: 'You do not have permission to print this report',
  preparing: 'Preparing the report for printing...',
} as const;
