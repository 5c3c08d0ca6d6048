import { unknownApiRoute } from '@/lib/server/route';

/**
 * Any other /api path: behind the gate like every route (401 first), then 404 in the contract's error envelope
 * with the same headers. Without it Next would answer with its HTML 404 page, outside the wrapper.
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = unknownApiRoute();
