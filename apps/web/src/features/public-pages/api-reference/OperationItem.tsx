import { Badge, type BadgeTone } from '../../../components/ui';
import { FieldsTable } from './FieldsTable';
import { InlineCode } from './InlineCode';
import { ACCESS_LABELS, type AnswerView, type OperationView } from './openApiReading';

const METHOD_TONES: Record<string, BadgeTone> = {
  GET: 'info',
  POST: 'success',
  PUT: 'warning',
  DELETE: 'danger',
};

function Heading({ children }: { children: string }) {
  return (
    <h4 className="mt-5 mb-2 text-xs font-semibold tracking-wide text-zinc-500 uppercase">{children}</h4>
  );
}

function Answer({ answer, operationId }: { answer: AnswerView; operationId: string }) {
  return (
    <div className="mt-3">
      <p className="text-sm text-zinc-700">
        <span className="font-mono font-semibold text-zinc-900">{answer.status}</span>{' '}
        <InlineCode text={answer.description} />
        {answer.contentType && (
          <span className="text-zinc-500">
            {' '}
            — <code className="font-mono text-xs">{answer.contentType}</code>
            {answer.type && answer.fields.length === 0 && (
              <>
                : <code className="font-mono text-xs">{answer.type}</code>
              </>
            )}
          </span>
        )}
      </p>
      {answer.fields.length > 0 && (
        <FieldsTable label={`${operationId} ${answer.status} answer`} rows={answer.fields} />
      )}
    </div>
  );
}

/** One operation: a line with its method, path, name and access; opened, its inputs and answers. */
export function OperationItem({ operation }: { operation: OperationView }) {
  return (
    <details id={operation.id} className="group rounded-xl border border-zinc-200 bg-white open:shadow-sm">
      <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 hover:bg-zinc-50">
        <Badge tone={METHOD_TONES[operation.method] ?? 'neutral'} className="w-16 justify-center font-mono">
          {operation.method}
        </Badge>
        <code className="font-mono text-sm font-medium break-all text-zinc-900">{operation.path}</code>
        <span className="text-sm text-zinc-500">{operation.id}</span>
        <Badge
          tone={operation.access === 'public' || operation.access === 'loopback' ? 'neutral' : 'accent'}
          className="ml-auto"
        >
          {ACCESS_LABELS[operation.access]}
        </Badge>
      </summary>
      <div className="border-t border-zinc-100 px-4 pt-2 pb-5 text-sm">
        {operation.description && (
          <p className="mt-2 text-zinc-700">
            <InlineCode text={operation.description} />
          </p>
        )}
        <p className="mt-2 text-zinc-600">
          <span className="font-medium text-zinc-900">Auth:</span> {operation.auth}
        </p>
        {operation.parameters.length > 0 && (
          <>
            <Heading>Parameters</Heading>
            <FieldsTable label={`${operation.id} parameters`} rows={operation.parameters} />
          </>
        )}
        {operation.body && (
          <>
            <Heading>Request body</Heading>
            <p className="text-zinc-600">
              <code className="font-mono text-xs">{operation.body.contentType}</code>
              {operation.body.required ? ', required' : ', optional'}
              {operation.body.fields.length === 0 && (
                <>
                  : <code className="font-mono text-xs">{operation.body.type}</code>
                </>
              )}
            </p>
            {operation.body.fields.length > 0 && (
              <FieldsTable label={`${operation.id} request body`} rows={operation.body.fields} />
            )}
          </>
        )}
        <Heading>Answers</Heading>
        {operation.answers.map((answer) => (
          <Answer key={answer.status} answer={answer} operationId={operation.id} />
        ))}
        <Heading>Errors (the error body)</Heading>
        <ul className="space-y-1 text-zinc-600">
          {operation.errors.map((error) => (
            <li key={error.status}>
              <span className="font-mono font-semibold text-zinc-900">{error.status}</span>{' '}
              <InlineCode text={error.description} />
            </li>
          ))}
        </ul>
      </div>
    </details>
  );
}
