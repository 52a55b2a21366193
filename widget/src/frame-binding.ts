/**
 * Which frames of a session's BroadcastChannel a secure field frame deals with. Any document of
 * the gateway's origin can join the channel, and the merchant page names the session (it is in
 * each frame's address), so a page script could add a gateway frame of its own to the session:
 * one that posts to another checkout. Membership therefore rests on what the page cannot forge or
 * read: each frame makes a random id when it starts (never shown to the page), announces it with
 * its checkout and purpose, and deals only with frames bound to the same checkout and purpose.
 * A field frame answers the one poster it bound to and addresses its value to that poster's id;
 * a poster takes values only from the bound frame of each field it collects.
 */
import type { SecureField } from './protocol.js';

/** What a frame tells the others of its session when it starts (and answers a newcomer with). */
export interface Member {
  readonly id: string;
  readonly field: SecureField;
  readonly poster: boolean;
  readonly checkoutId: string;
  readonly purpose: 'payment' | 'registration';
}

/** The role a frame plays in its form: the poster, or the frame of one secure field. */
type Role = SecureField | 'poster';

export interface Binding {
  readonly self: Member;
  /** The first frame of the same checkout and purpose to announce each role. */
  readonly bound: Map<Role, string>;
}

export function newBinding(self: Member): Binding {
  const binding: Binding = { self, bound: new Map() };
  bindRoles(binding, self);
  return binding;
}

function bindRoles(binding: Binding, member: Member): void {
  for (const role of member.poster ? [member.field, 'poster' as const] : [member.field]) {
    if (!binding.bound.has(role)) binding.bound.set(role, member.id);
  }
}

/**
 * Records a member's announcement. The first frame of the same checkout and purpose to claim a
 * role binds it and later claimants are ignored, so a frame added afterwards cannot take a place.
 */
export function admit(binding: Binding, member: Member): void {
  if (member.id === binding.self.id || member.checkoutId !== binding.self.checkoutId || member.purpose !== binding.self.purpose) return;
  bindRoles(binding, member);
}

/** A field frame hands its value only to the poster it bound to. */
export function answersCollectFrom(binding: Binding, from: string): boolean {
  return !binding.self.poster && binding.bound.get('poster') === from;
}

/** A poster takes a value only when it is addressed to it by the frame bound for that field. */
export function takesValue(binding: Binding, message: { readonly from: string; readonly to: string; readonly field: SecureField }): boolean {
  return binding.self.poster && message.to === binding.self.id && message.field !== binding.self.field && binding.bound.get(message.field) === message.from;
}

/** The CVV frame follows the brand of its own form's number frame only. */
export function takesBrandFrom(binding: Binding, from: string): boolean {
  return binding.bound.get('number') === from;
}
