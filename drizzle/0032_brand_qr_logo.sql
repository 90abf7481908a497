-- Whether the brand's logo sits in the middle of its cards' QR codes (drawn with the highest error correction).
ALTER TABLE "brands" ADD COLUMN IF NOT EXISTS "qr_logo" boolean DEFAULT false NOT NULL;
