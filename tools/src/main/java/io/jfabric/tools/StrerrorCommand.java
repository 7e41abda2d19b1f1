package io.jfabric.tools;

import io.jfabric.Errno;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

/**
 * {@code jfabric strerror}: the text {@code fi_strerror} gives for error numbers or names, one line each
 * ({@code jfabric strerror 11}, {@code -11}, {@code FI_EAGAIN}, {@code eagain}). Numbers libfabric has no text
 * for print as {@code fi_strerror} prints them ("Unspecified error" past FI_ERRNO_MAX). A name libfabric does not
 * define, or a number out of range for an int, prints nothing but an error and exits with 22 (FI_EINVAL).
 * Runs on the command line's thread.
 */
@Command(
    name = "strerror",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 1,
    versionProvider = JfabricMain.VersionProvider.class,
    description = "Print fi_strerror's text for libfabric error numbers or names.")
final class StrerrorCommand implements Callable<Integer>
{
    private static final Pattern NUMBER = Pattern.compile("[+-]?[0-9]+");

    @Spec
    private CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "ERRNO",
        description = "an error number (11, -11) or name (FI_EAGAIN, EAGAIN), any case")
    private List<String> errors;

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final List<String> texts = new ArrayList<>(errors.size());
        boolean bad = false;
        for (final String error : errors)
        {
            final Integer errno = parse(error);
            if (errno == null)
            {
                err.print("jfabric strerror: not a libfabric error number or name: '" + error + "'\n");
                bad = true;
            }
            else
            {
                texts.add(Errno.strerror(errno));
            }
        }
        if (!bad)
        {
            for (final String text : texts)
            {
                out.print(text + "\n");
            }
        }
        out.flush();
        err.flush();
        return bad ? Errno.FI_EINVAL : 0;
    }

    /**
     * @param error a number, possibly negated, or a name with or without FI_ and a leading '-'.
     * @return the error number, or null when it is neither.
     */
    static Integer parse(final String error)
    {
        final String s = error.trim();
        if (NUMBER.matcher(s).matches())
        {
            try
            {
                return Integer.parseInt(s);
            }
            catch (final NumberFormatException ex)
            {
                return null;
            }
        }
        final int errno = Errno.valueOf(s.startsWith("-") ? s.substring(1) : s);
        return errno < 0 ? null : errno;
    }
}
