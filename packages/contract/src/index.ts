export * from './admin.js';
export * from './billing.js';
export * from './enterprise.js';
export * from './errors.js';
export * from './users.js';
export * from './vmSizes.js';
