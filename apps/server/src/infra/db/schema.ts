/**
 * Every table, for Drizzle: the relational queries (`db.query.…`) and drizzle-kit's migrations read this list.
 * Each table lives in the file of its concern; code imports the tables from here.
 */
export { apiTokens, auditLog, emailWhitelist, enterpriseInquiries } from './accountTables.js';
export { alertConfigs, alerts, metricSamples } from './alertTables.js';
export { backupSettings, backups, restores } from './backupTables.js';
export { billingProviderRefs, invoices, subscriptions, webhookEvents } from './billingTables.js';
export { envVariables, users, vms, workspaces } from './coreTables.js';
export { customDomains } from './customDomainTables.js';
export { deployments, type StepRecord } from './deploymentTables.js';
export { kvEntries, queueJobs } from './embeddedAdapterTables.js';
export { logChunks } from './logTables.js';
export { previewSettings, previews } from './previewTables.js';
