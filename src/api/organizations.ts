// Requests of the organization and user calls (spec §3, §6.2, §7), the set-operation bodies shared by
// every PATCH with set-valued fields, and the texts of our own for these calls (docs/decisions.md).
import { z } from 'zod';
import { USER_NAME_MAX } from './constants';
import { Id } from './common';
import { pageParams, repeated } from './lists';
import { OrganizationInfo, UserStatus } from './users';
import { SET_FIELDS } from './set-fields';

/** A policy name as sent; that it is one of the 24 is checked by the server (src/access owns the list). */
export const PolicyName = z.string().min(1).max(100);
const policyList = z.array(PolicyName).max(50);

/**
 * `{ add: {field: [...]}, remove: {field: [...]} }` next to a PATCH's entity, so that two offline
 * edits of a set (tags, assignees, ...) merge instead of the later one overwriting the earlier.
 */
export function setOps<const F extends readonly string[]>(fields: F, item: z.ZodType<string> = Id) {
  const shape = Object.fromEntries(fields.map((f) => [f, z.array(item).max(500).optional()])) as {
    [K in F[number]]: z.ZodOptional<z.ZodArray<z.ZodType<string>>>;
  };
  const ops = z.strictObject(shape).optional();
  return { add: ops, remove: ops };
}

/**
 * A create body: `{ <key>: {...fields} }` as the spec shows for studies; the flat field list that §7
 * shows for scan order lists is accepted too and read as if it were wrapped.
 */
export function createBody<K extends string, S extends z.ZodType>(key: K, fields: S) {
  const body = z.preprocess(
    (v) => (v && typeof v === 'object' && !Array.isArray(v) && !(key in v) ? { [key]: v } : v),
    z.object({ [key]: fields } as { [P in K]: S }),
  );
  FLAT_BODY_KEYS.set(body, key);
  return body;
}

/** Create bodies that also take their fields flat, by wrapping key (the OpenAPI description says so). */
export const FLAT_BODY_KEYS = new WeakMap<z.ZodType, string>();

// ---- Organizations ----------------------------------------------------------------------------

export const ScanGroupSettingsInput = z.strictObject({
  maxDefaultActiveExpiryDays: z.number().int().min(0).max(3650).optional(),
  defaultActiveExpiryDays: z.number().int().min(0).max(3650).optional(),
});

const organizationFields = {
  name: z.string().trim().min(1, 'Name is required').max(200),
  availablePolicies: policyList,
  enabledPolicies: policyList,
  info: OrganizationInfo.strict(),
  adminUserId: Id.nullable(),
  scanGroupSettings: ScanGroupSettingsInput,
  userLimit: z.number().int().min(0).max(1_000_000).nullable(),
};

export const OrganizationCreate = z.strictObject({
  ...organizationFields,
  /** Absent or null: a new root organization (platform administrators only). */
  parentId: Id.nullable().optional(),
  availablePolicies: policyList.optional(),
  enabledPolicies: policyList.optional(),
  info: organizationFields.info.optional(),
  adminUserId: organizationFields.adminUserId.optional(),
  scanGroupSettings: ScanGroupSettingsInput.optional(),
  userLimit: organizationFields.userLimit.optional(),
});
export const OrganizationCreateBody = createBody('organization', OrganizationCreate);
export type OrganizationCreateBody = z.input<typeof OrganizationCreateBody>;

export const OrganizationPatch = z.strictObject(organizationFields).partial();
export const OrganizationPatchBody = z.strictObject({
  organization: OrganizationPatch.optional(),
  ...setOps(SET_FIELDS.organizations, PolicyName),
});
export type OrganizationPatchBody = z.input<typeof OrganizationPatchBody>;

const booleanParam = z
  .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1');

export const OrganizationListQuery = z.object({
  ...pageParams(100, 10),
  /** 'null' lists root organizations; an id lists that organization's direct teams. */
  parentId: z.union([z.literal('null'), Id]).optional(),
  /** Only what the caller administers: their organization and its teams (everything for platform admins). */
  showAsAdmin: booleanParam.optional(),
  /** Part of the name, any case. */
  search: z.string().max(200).optional(),
  id: repeated(Id),
});

// ---- Users ------------------------------------------------------------------------------------

const email = z
  .email({ message: 'Enter a valid e-mail address' })
  .max(254)
  .transform((e) => e.trim().toLowerCase());
const userName = z.string().trim().min(1, 'Name is required').max(USER_NAME_MAX);

export const UserCreate = z.strictObject({
  email,
  name: userName.optional(),
  /** Defaults to the inviter's own organization; a child team needs createTeamUsers. */
  organizationId: Id.optional(),
  enabledPolicies: policyList.optional(),
});
export const UserCreateBody = createBody('user', UserCreate);
export type UserCreateBody = z.input<typeof UserCreateBody>;

/** "Modify is limited to name and enabledPolicies" (§6.2): other keys are refused by name. */
export const UserPatch = z.strictObject({ name: userName, enabledPolicies: policyList }).partial();
export const UserPatchBody = z.strictObject({
  user: UserPatch.optional(),
  ...setOps(SET_FIELDS.users, PolicyName),
});
export type UserPatchBody = z.input<typeof UserPatchBody>;

export const UserListQuery = z.object({
  ...pageParams(100, 10),
  organizationId: repeated(Id),
  status: repeated(UserStatus),
  /** Part of the name or e-mail, any case. */
  search: z.string().max(200).optional(),
  id: repeated(Id),
});

export const CheckEmailQuery = z.object({ email });
export const CheckEmailResult = z.object({ isEmailAvailable: z.boolean() });

export const UserText = {
  inviteSubject: 'You are invited to Tessera',
  invitationResent: (email: string) => `Invitation sent again to ${email}`,
} as const;
