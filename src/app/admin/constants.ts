// UI sizes of spec §9 that the admin screens use.
/** "organization modal 560". */
export const ORGANIZATION_MODAL_WIDTH = 560;
/** Picker dropdowns: 300 px, the user dropdown 240 px. */
export const PICKER_MAX_HEIGHT = 300;
export const USER_DROPDOWN_MAX_HEIGHT = 240;
/** Toasts close after 5000 ms. */
export const TOAST_MS = 5000;
