/** Display helpers shared by server and client. */
export function fullName(person: { firstName: string; lastName: string }): string {
  return `${person.firstName} ${person.lastName}`.trim();
}

export function initials(person: { firstName: string; lastName: string }): string {
  const first = Array.from(person.firstName.trim())[0] ?? "";
  const last = Array.from(person.lastName.trim())[0] ?? "";
  return `${first}${last}`.toUpperCase() || "?";
}
