// The order routes under one registration: /v2/scan-orders, /v2/scan-order-lists, and their sync sources.
import type { FastifyPluginAsync } from 'fastify';
import { scanOrderListRoutes } from './scan-order-lists';
import { scanOrderRoutes } from './scan-orders';

export const orderRoutes: FastifyPluginAsync = async (v2) => {
  await v2.register(scanOrderRoutes, { prefix: '/scan-orders' });
  await v2.register(scanOrderListRoutes, { prefix: '/scan-order-lists' });
};
