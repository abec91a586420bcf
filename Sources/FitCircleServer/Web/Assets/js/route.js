// A workout's route thumbnail: the feed's `routeThumbnail` (at most 32 points, Google's encoded polyline at
// 1e-5 degrees) drawn as a small line, north up, its shape kept.
import { svg } from "./dom.js";

/** The [latitude, longitude] pairs of an encoded polyline. */
export function decodePolyline(encoded) {
  const points = [];
  let index = 0, latitude = 0, longitude = 0;
  const next = () => {
    let result = 0, shift = 0, byte;
    do {
      if (index >= encoded.length) return null;
      byte = encoded.charCodeAt(index++) - 63;
      result |= (byte & 0x1f) << shift;
      shift += 5;
    } while (byte >= 0x20);
    return result & 1 ? ~(result >> 1) : result >> 1;
  };
  while (index < encoded.length) {
    const dLat = next(), dLon = next();
    if (dLat === null || dLon === null) break;
    latitude += dLat;
    longitude += dLon;
    points.push([latitude / 1e5, longitude / 1e5]);
  }
  return points;
}

/** An SVG of the route, or null when it has fewer than two points. */
export function routeThumbnail(encoded, width = 96, height = 64) {
  const points = decodePolyline(encoded ?? "");
  if (points.length < 2) return null;
  // Longitude shrinks with latitude: scale it so the shape is not stretched.
  const squeeze = Math.cos((points[0][0] * Math.PI) / 180);
  const xs = points.map(([, lon]) => lon * squeeze), ys = points.map(([lat]) => -lat);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const scale = Math.min((width - 8) / Math.max(maxX - minX, 1e-9), (height - 8) / Math.max(maxY - minY, 1e-9));
  const offsetX = (width - (maxX - minX) * scale) / 2, offsetY = (height - (maxY - minY) * scale) / 2;
  const drawn = xs.map((x, i) => `${(offsetX + (x - minX) * scale).toFixed(1)},${(offsetY + (ys[i] - minY) * scale).toFixed(1)}`).join(" ");
  return svg("svg", { class: "route", viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": "Route" },
    svg("polyline", { points: drawn, fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linejoin": "round", "stroke-linecap": "round" }));
}
