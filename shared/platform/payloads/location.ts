/** A pin on the map, with an optional name and address. */
export interface Place {
  latitude: number;
  longitude: number;
  name: string | null;
  address: string | null;
}

/** A location message's object: the name and address only when given. */
export const locationObject = (place: Place) => ({
  latitude: place.latitude,
  longitude: place.longitude,
  ...(place.name && { name: place.name }),
  ...(place.address && { address: place.address }),
});
