-- The cancellation notice of a schedule (docs/schedules.md "Notice and duration"): a DS given to a
-- schedule with job.noticeUnit/noticeNumber is a cancellation that takes effect later. The
-- schedule stays active until then with ends_at moved to the last instant a run may be made,
-- and cancelled_at (the real time of the DS) says that its end, when it comes, is DESCHEDULED.
ALTER TABLE schedules ADD COLUMN cancelled_at timestamptz;
