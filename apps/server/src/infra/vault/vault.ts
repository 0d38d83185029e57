/** Secrets at rest: values go in as plaintext and are stored only as the ciphertext this returns. */
export interface Vault {
  encrypt(plaintext: string): Promise<string>;
  decrypt(ciphertext: string): Promise<string>;
}
