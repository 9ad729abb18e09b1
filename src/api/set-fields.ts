// The set-valued fields of each resource (tags, assignees, ids of members): a PATCH may carry them as
// `{add: {...}, remove: {...}}` next to the entity, and the server merges those into the stored set,
// so two offline edits of the same set both land. The request schemas (setOps) and the routes that
// apply the changes read this one table.
export const SET_FIELDS = {
  studies: ['tags', 'scanGroupIds', 'assigneeUserIds', 'assigneeOrgIds'],
  scanGroups: ['tags', 'assigneeUserIds', 'assigneeOrgIds'],
  organizations: ['availablePolicies', 'enabledPolicies'],
  users: ['enabledPolicies'],
  pipelines: ['predictorIds', 'assigneeOrgIds'],
  scanOrders: ['studyIds', 'assigneeUserIds', 'assigneeOrgIds'],
  scanOrderLists: ['scanOrderIds', 'assigneeUserIds', 'assigneeOrgIds'],
} as const;

export type SetFieldOf<R extends keyof typeof SET_FIELDS> = (typeof SET_FIELDS)[R][number];
