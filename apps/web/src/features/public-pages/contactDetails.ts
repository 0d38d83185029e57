/** Where people reach us; one place so every page shows the same addresses. */
export const SUPPORT_EMAIL = 'support@slipway.dev';
export const ENTERPRISE_EMAIL = 'enterprise@slipway.dev';
