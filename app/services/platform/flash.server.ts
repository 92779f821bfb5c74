import { redirect } from "react-router";
import type { MessageKey } from "~/locales/keys";
import { appCookies } from "./request.server";

/**
 * A message shown once after a redirect; `key` is a translation key ("ns:key", a `MessageKey`, so a
 * key in no text fails `tsc`), translated where rendered.
 */
export interface Flash {
  type: "success" | "error" | "info";
  key: MessageKey;
  values?: Record<string, string | number>;
}

export async function flashHeader(flash: Flash): Promise<string> {
  return appCookies().flash.serialize(flash);
}

/** Post/redirect/get with a message for the next page: 303 See Other, so the next request is a GET. */
export async function redirectWithFlash(to: string, flash: Flash, headers: HeadersInit = {}): Promise<Response> {
  const out = new Headers(headers);
  out.append("Set-Cookie", await flashHeader(flash));
  return redirect(to, { status: 303, headers: out });
}

function isFlash(value: unknown): value is Flash {
  if (!value || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  return (v.type === "success" || v.type === "error" || v.type === "info") && typeof v.key === "string";
}

/** Reads and clears the pending message. */
export async function takeFlash(request: Request): Promise<{ flash: Flash | null; setCookie: string | null }> {
  const cookieHeader = request.headers.get("cookie");
  if (!cookieHeader?.includes("praksis_flash")) return { flash: null, setCookie: null };
  const value = (await appCookies().flash.parse(cookieHeader)) as unknown;
  return {
    flash: isFlash(value) ? value : null,
    setCookie: await appCookies().flash.serialize("", { maxAge: 0 }),
  };
}
