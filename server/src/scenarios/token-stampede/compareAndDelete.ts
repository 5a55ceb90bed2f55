// Releases a Redis lock only while it still holds the releaser's own token: the check and
// the delete are one atomic step inside Redis, so a lock that expired and passed to
// another server is never deleted by its former holder.
export const COMPARE_AND_DELETE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;
