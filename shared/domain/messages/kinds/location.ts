import type { SessionKind } from '#shared/domain/messages/kinds/kind';
import type { MessageLocation } from '#shared/records/message';
import { locationObject } from '#shared/platform/payloads/location';

export interface LocationInput {
  latitude: number;
  longitude: number;
  name?: string;
  address?: string;
}

/** The text a location shows: its name and address, as for an inbound location. */
export const locationText = (place: { name?: string | null; address?: string | null }) => [place.name, place.address].filter(Boolean).join(', ');

/** A pin on the map, with an optional name and address. */
export const location: SessionKind<LocationInput> = {
  accept: (_ws, input) => {
    const place: MessageLocation = { latitude: input.latitude, longitude: input.longitude, name: input.name ?? null, address: input.address ?? null };
    return { content: locationText(place), location: place };
  },
  platformObject: ({ location: place }) => locationObject(place!),
};
