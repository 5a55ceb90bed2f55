export { findServices, probeSetUrls, DEFAULT_REDIS_URL, DEFAULT_DATABASE_URL } from './findServices.js';
export type { Services, ServiceSource, FindServicesOptions, SetUrls } from './findServices.js';
export { describeServices } from './describeServices.js';
export { redactUrl } from './redactUrl.js';
export { servicesOrSay } from './servicesOrSay.js';
