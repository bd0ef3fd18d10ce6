export type Infra = 'postgres' | 'redis' | 'kafka';

export interface Started {
  /** Tears the server down (a no-op for servers given through the environment). Safe to call twice. */
  stop(): Promise<void>;
}

export interface PostgresServer extends Started {
  /** postgres://user@127.0.0.1:port/postgres (the admin database) */
  url: string;
  /** Creates a fresh, uniquely named database on this server and returns its URL. */
  createDatabase(prefix?: string): Promise<string>;
}

export interface RedisServer extends Started {
  /** redis://127.0.0.1:port */
  url: string;
}

export interface KafkaCluster extends Started {
  /** bootstrap brokers, host:port */
  brokers: string[];
}

export interface InfraAvailability {
  available: boolean;
  how: 'env' | 'local' | 'container' | 'none';
  hint: string;
}

export interface TcpProxy {
  port: number;
  host: string;
  /** Resets every open connection and every new one until resume(). */
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}
