import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { mediaBucket, s3 } from '#shared/media/bucket';
import { MEDIA_LINK_SECONDS } from '#shared/media/bucket-settings';

/** A link to a stored media copy, valid MEDIA_LINK_SECONDS, signed anew on each call. */
export const mediaLink = (key: string): Promise<string> => getSignedUrl(s3(), new GetObjectCommand({ Bucket: mediaBucket(), Key: key }), { expiresIn: MEDIA_LINK_SECONDS });
