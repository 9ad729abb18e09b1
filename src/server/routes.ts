// Every /v2 resource, registered with one line each (STYLE §2). Order does not matter.
import type { FastifyInstance } from 'fastify';
import { authRoutes } from './auth/routes';
import { syncRoutes } from './sync/routes';
import { tileRoutes } from './processing/tile-routes';
import { labelRoutes } from './labels/routes';
import { studyRoutes } from './studies/routes';
import { scanGroupRoutes } from './scan-groups/routes';
import { imageRoutes } from './images/routes';
import { fileRoutes } from './images/files-routes';
import { reactionRoutes } from './reactions/routes';
import { activityRoutes } from './activities/routes';
import { viewerSettingsRoutes } from './viewer-settings/routes';
import { reviewRoutes } from './reviews/routes';
import { annotationRoutes } from './annotations/routes';
import { alignmentRoutes } from './alignments/routes';
import { organizationSyncSources } from './users/sync';
import { organizationRoutes } from './organizations/routes';
import { userRoutes } from './users/routes';
import { catalogRoutes } from './catalog/routes';
import { orderRoutes } from './orders/routes';
import { mailRoutes } from './mail/routes';
import { uploadRoutes } from './uploads/routes';
import { uploadGroupRoutes } from './uploads/group-routes';

export async function registerResources(v2: FastifyInstance): Promise<void> {
  organizationSyncSources();
  await v2.register(authRoutes, { prefix: '/auth' });
  await v2.register(syncRoutes, { prefix: '/sync' });
  await v2.register(tileRoutes, { prefix: '/images' });
  await v2.register(labelRoutes, { prefix: '/scan-groups' });
  await v2.register(studyRoutes, { prefix: '/studies' });
  await v2.register(scanGroupRoutes, { prefix: '/scan-groups' });
  await v2.register(imageRoutes, { prefix: '/images' });
  await v2.register(fileRoutes, { prefix: '/files' });
  await v2.register(reactionRoutes, { prefix: '/reactions' });
  await v2.register(activityRoutes, { prefix: '/activities' });
  await v2.register(viewerSettingsRoutes, { prefix: '/user-viewer-settings' });
  await v2.register(organizationRoutes, { prefix: '/organizations' });
  await v2.register(userRoutes, { prefix: '/users' });
  await v2.register(catalogRoutes);
  await v2.register(orderRoutes);
  await v2.register(mailRoutes, { prefix: '/mail' });
  await v2.register(reviewRoutes, { prefix: '/reviews' });
  await v2.register(annotationRoutes, { prefix: '/annotations' });
  await v2.register(alignmentRoutes, { prefix: '/alignments' });
  await v2.register(uploadRoutes, { prefix: '/uploads' });
  await v2.register(uploadGroupRoutes, { prefix: '/upload-groups' });
}
