// Where a fencing token is checked, and where the check sits, in systems that depend on it:
// each source with what it shows, in a line.
import type { WildSource } from '@racelab/shared';

export const SEEN_IN_THE_WILD: WildSource[] = [
  {
    title: 'How to do distributed locking (Martin Kleppmann)',
    url: 'https://martin.kleppmann.com/2016/02/08/how-to-do-distributed-locking.html',
    summary:
      'The storage server remembers the highest token it has processed and rejects any write with a lower one; a token nobody compares at the storage protects nothing.',
  },
  {
    title: 'JournalNodes (Cloudera HDFS docs)',
    url: 'https://docs.cloudera.com/runtime/latest/data-protection/topics/hdfs-journalnodes.html',
    summary:
      'HDFS’s journal keeps a last-promised epoch: a NameNode that becomes active raises it, and requests from a NameNode presenting a lower epoch are ignored by the journal itself.',
  },
  {
    title: 'ProducerFencedException (Apache Kafka API docs)',
    url: 'https://kafka.apache.org/30/javadoc/org/apache/kafka/common/errors/ProducerFencedException.html',
    summary:
      'When a producer starts with the same transactional.id, Kafka fences the older instances by epoch: the brokers refuse their transactional requests, whatever those instances believe.',
  },
  {
    title: 'CWE-367: Time-of-check Time-of-use (TOCTOU) Race Condition (MITRE)',
    url: 'https://cwe.mitre.org/data/definitions/367.html',
    summary:
      'A check and the action it guards, done as two steps, let the state change in between: the fault of a fence compared in the application before a separate write.',
  },
];
