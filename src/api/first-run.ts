// The first run of a new install: the demo lab a super administrator may load while the server
// runs, and our own texts of the first-run checklist, the generated-password prompt and the empty
// pickers (the spec has none; docs/decisions.md, "First run").
import { z } from 'zod';

/** The demo lab's root organization: its presence says the demo was loaded. */
export const DEMO_ORGANIZATION = 'Northside Pathology Lab';

/** One demo sign-in: the role it stands for, its e-mail and its known demo password. */
export const DemoSignIn = z.object({ role: z.string(), email: z.string(), password: z.string() });
export type DemoSignIn = z.infer<typeof DemoSignIn>;

/** What POST /v2/demo-lab answers. */
export const DemoLabResult = z.object({
  organization: z.string(),
  organs: z.number().int(),
  pipelines: z.number().int(),
  users: z.array(DemoSignIn),
});
export type DemoLabResult = z.infer<typeof DemoLabResult>;

export const FirstRunText = {
  loadDemo: 'Load the demo lab',
  demoLoaded: `${DEMO_ORGANIZATION} is loaded`,
  changePassword: 'You are signed in with the generated password. Choose your own password.',
  changePasswordAction: 'Change password',
  checklist: 'Setup checklist',
  checklistIntro: 'What a new lab needs before its first slide. Each item links to where it is done.',
  organsStep: 'Organs for slide labels',
  pipelinesStep: 'Staining pipelines for scan orders',
  teamsStep: 'Teams in your organization',
  usersStep: 'Colleagues invited',
  passwordStep: 'Your own password',
  organizationSetup: 'Organization Setup',
} as const;

/**
 * What an empty picker says (each in one place for pages and tests): where to fix it for whoever
 * may, and whom to ask for everyone else.
 */
export const EmptyPickerText = {
  organsFix: 'No organs yet: add them under Administrator → Organs',
  organsAsk: 'No organs yet: ask your platform administrator to add them.',
  pipelinesFix: 'No pipelines yet: add them under Administrator → Pipelines',
  pipelinesAsk: 'No staining pipeline is available to your organization: ask your platform administrator.',
  studiesFix: 'No studies yet: create one under Dashboard → Studies',
  studiesAsk: 'No studies yet: ask a colleague to share a study with you, or your administrator for access.',
} as const;
