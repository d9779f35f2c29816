// E-mail addresses are stored lower-case and trimmed, so uniqueness is case-insensitive.
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
