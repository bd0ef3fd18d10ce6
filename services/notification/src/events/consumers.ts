/** Every event the notification service consumes, in one list. */
import type { Consumer } from '@puente/platform';

export const consumers: Consumer[] = [];
