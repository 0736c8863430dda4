/**
 * IMO ship identification number: 7 digits whose last is the check digit, the last digit of
 * Σ digit_i × (8 − i) over the first six (9074729: 9×7+0×6+7×5+4×4+7×3+2×2 = 139 → 9).
 */
export function isValidImo(value: number): boolean {
  if (!Number.isInteger(value) || value < 1_000_000 || value > 9_999_999) return false;
  const digits = String(value);
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += (digits.charCodeAt(i) - 48) * (7 - i);
  return sum % 10 === digits.charCodeAt(6) - 48;
}
