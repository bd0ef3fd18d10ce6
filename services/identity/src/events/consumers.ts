/** Every event identity consumes, in one list. Projections onto the user record arrive with their producers. */
import type { Consumer } from '@puente/platform';

export const consumers: Consumer[] = [];
