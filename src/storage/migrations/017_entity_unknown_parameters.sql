-- What a request naming a parameter no endpoint knows gets, per entity: refused with the name
-- (the default) or accepted with the name listed in the answer (docs/compatibility.md).
ALTER TABLE entities ADD COLUMN unknown_parameters text NOT NULL DEFAULT 'reject'
  CHECK (unknown_parameters IN ('reject', 'ignore'));
