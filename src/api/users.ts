// User and Organization as the API returns them (spec §3).
import { z } from 'zod';
import { Id } from './common';

export const UserStatus = z.enum(['created', 'organizer', 'pending', 'active']);
export type UserStatus = z.infer<typeof UserStatus>;

export const User = z.object({
  id: Id,
  email: z.string(),
  search: z.string(),
  name: z.string(),
  status: UserStatus,
  organizationId: Id,
  enabledPolicies: z.array(z.string()),
  requestedPolicies: z.array(z.string()),
  creatorUserId: Id.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type User = z.infer<typeof User>;

export const OrganizationInfo = z.object({
  address: z.string().max(200).optional(),
  city: z.string().max(100).optional(),
  state: z.string().max(100).optional(),
  zip: z.string().max(20).optional(),
  phone: z.string().max(40).optional(),
  email: z.string().max(200).optional(),
  country: z.string().max(100).optional(),
  adminUsers: z.array(z.string().max(200)).max(50).optional(),
});

export const Organization = z.object({
  id: Id,
  name: z.string(),
  rootId: Id,
  parentId: Id.nullable(),
  parentIds: z.array(z.string()),
  childIds: z.array(z.string()),
  enabledPolicies: z.array(z.string()),
  availablePolicies: z.array(z.string()),
  info: OrganizationInfo,
  creatorUserId: Id.nullable(),
  createdAt: z.string(),
  adminUserId: Id.nullable(),
  scanGroupSettings: z.object({
    maxDefaultActiveExpiryDays: z.number().int().optional(),
    defaultActiveExpiryDays: z.number().int().optional(),
  }),
  userLimit: z.number().int().nullable(),
  numberOfUsers: z.number().int(),
});
export type Organization = z.infer<typeof Organization>;
