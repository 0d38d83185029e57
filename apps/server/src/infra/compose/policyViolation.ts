/** One broken sandbox rule of a compose project: the service (null: the file itself), the key, and what to change. */
export interface PolicyViolation {
  service: string | null;
  key: string;
  message: string;
}
