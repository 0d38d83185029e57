import { describe, expect, it } from 'vitest';
import { uploadErrorText } from './uploadErrorText';

const answered = (status: number, data: unknown) =>
  Object.assign(new Error(`Request failed with status code ${status}`), {
    isAxiosError: true,
    response: { status, data },
  });

describe("the wizard's upload alert", () => {
  it("shows the server's detail, or 'Upload failed' when the answer has none", () => {
    expect(uploadErrorText(answered(400, { error: 'Invalid', detail: 'Line 2: no =' }))).toBe(
      'Error uploading variables: Line 2: no =',
    );
    expect(uploadErrorText(answered(500, {}))).toBe('Error uploading variables: Upload failed');
  });
  it("shows the network error's message when no answer came", () => {
    expect(uploadErrorText(new Error('Network Error'))).toBe('Error uploading variables: Network Error');
  });
});
