// Every user-facing text the spec gives (§5, §8, §2), verbatim, in one place: server and app import
// these rather than repeating literals (STYLE §4).

export const Denied = {
  deleteOwnOrganization: 'You cannot delete your own organization',
  deleteYourself: 'You cannot delete yourself',
  scanGroupsForYourself: 'You can only create scan groups for yourself',
  scanOrdersForYourself: 'You can only create scan orders for yourself',
  reviewsForYourself: 'You can only create reviews for yourself',
  annotationsForYourself: 'You can only create annotations for yourself',
  studiesForYourself: 'You can only create studies for yourself',
  imagesForYourself: 'You can only create images for yourself',
  downloadActiveImages: 'You can only download active images',
  uploadActiveImages: 'You can only upload active images',
  updateStatusActiveImages: 'You can only update status of active images',
  updateDisplayStatusActiveImages: 'You can only update display status of active images',
  noCreatePermission: "You don't have permissions to create",
  noLabelPermission: 'You dont have permission to create a new slide label.',
  noOrderPermission: 'You dont have permission to create a new order.',
  noReviewPermission: 'You do not have permission to request a review',
  noStudyPermission: 'You do not have permission to create a study',
  contactAdmin: 'Please contact your organization administrator to request access.',
  noOrganizations: 'There are not organizations available to you',
} as const;

export const Session = {
  notLoggedIn: 'User is not logged in',
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
  alreadyHasScanGroup: 'The study already has this scan group.',
  noImages: 'Images not found',
  tagExists: 'This tag already exists',
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
  incompatibleFormat: 'Incompatible File Format',
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
  imageNotReadyToDownload: 'Image is not ready to download',
  resultsNotFound: 'Results Not Found',
  noOptions: 'No options',
  selectAnimalFirst: 'Select an animal first',
} as const;

/** Messages of our own where the spec is silent (docs/decisions.md). */
export const AuthText = {
  invalidCredentials: 'Incorrect email or password',
  tooManyAttempts: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  invalidToken: 'Your session is not valid. Please sign in again.',
  refreshReused: 'This session was ended for your safety. Please sign in again.',
  wrongOldPassword: 'The current password is incorrect',
  weakPassword: 'The password must be at least 8 characters long',
  resetSent: 'If an account exists for that e-mail, a reset link has been sent.',
  resetTokenInvalid: 'This reset link is invalid or has expired',
  activationTokenInvalid: 'This activation link is invalid or has expired',
  botCheckFailed: 'The bot check failed. Please try again.',
  googleDisabled: 'Google sign-in is not configured',
  googleTokenInvalid: 'The Google sign-in could not be verified',
  missingPolicies: 'You do not have access to this application',
  userInactive: 'This account is not active',
  crossOriginWrite: 'This request came from a page outside Tessera and was refused',
} as const;

/** Ours too: the answer of a call that sends e-mail once its address or account asked too often. */
export const LimitText = {
  tooManyMails: 'Too many e-mails were asked for. Please wait an hour and try again.',
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

/** Reviews, QC and reports: our texts where the spec is silent (docs/decisions.md, issue 9). */
export const ReviewQcText = {
  decidedFirst: (who: string, result: string) =>
    `${who} marked this image ${result} first, so your decision was not saved.`,
  decisionRolledBack: 'Your QC decision was not saved',
  selectSlides: 'Select at least one slide',
  fillReviewers: 'Choose a reviewer in every slot',
} as const;

/** Regions drawn on a slide in the viewer (issue 9): texts of our own (docs/decisions.md). */
export const AnnotationUiText = {
  region: 'Region',
  drawRegion: 'Draw region',
  cancelDrawing: 'Cancel drawing',
  drawHint: 'Drag over the slide to outline a region (Esc cancels)',
  hideRegions: 'Hide regions',
  showRegions: 'Show regions',
  newRegion: 'New region',
  saveRegion: 'Save region',
} as const;

/** Administration, setup and account screens (issue 10): texts of our own (docs/decisions.md). */
export const AdminText = {
  resendInvitation: 'Resend invitation',
  removeUserTitle: 'Remove user',
  removeUserConfirm: (name: string) =>
    `Remove ${name}? They will no longer be able to sign in. What they created stays in the organization.`,
  emailTaken: 'A user with this e-mail already exists',
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
