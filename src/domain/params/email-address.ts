const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,63}$/;

/** Whether text (trimmed) reads as an e-mail address: the API's rule, which the console checks before sending. */
export function isEmailAddress(text: string): boolean {
  const value = text.trim();
  return value.length <= 320 && EMAIL.test(value);
}
