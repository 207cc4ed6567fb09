/**
 * The platform's API credentials for this tab's session only: sessionStorage is cleared when the tab
 * closes, is never sent to the server by itself (unlike a cookie) and is not shared with other tabs.
 * Nothing is written to localStorage, cookies or IndexedDB.
 */
export interface Credentials {
  clientId: string;
  clientSecret: string;
}

const KEY = "paysvc.dashboard.credentials";

export function loadCredentials(): Credentials | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<Credentials>;
    if (typeof parsed.clientId !== "string" || typeof parsed.clientSecret !== "string") return null;
    return { clientId: parsed.clientId, clientSecret: parsed.clientSecret };
  } catch {
    return null;
  }
}

export function saveCredentials(credentials: Credentials): void {
  sessionStorage.setItem(KEY, JSON.stringify(credentials));
}

export function clearCredentials(): void {
  sessionStorage.removeItem(KEY);
}
