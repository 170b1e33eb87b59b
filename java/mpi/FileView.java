package mpi;

/** A file's view (MPI_File_get_view): displacement in bytes, etype, filetype, data representation. */
public final class FileView {
    private final long disp;
    private final Datatype etype;
    private final Datatype filetype;
    private final String datarep;

    public FileView(long disp, Datatype etype, Datatype filetype, String datarep) {
        this.disp = disp;
        this.etype = etype;
        this.filetype = filetype;
        this.datarep = datarep;
    }

    public long getDisp() {
        return disp;
    }

    public Datatype getEType() {
        return etype;
    }

    public Datatype getFileType() {
        return filetype;
    }

    public String getDataRep() {
        return datarep;
    }

    @Override
    public String toString() {
        return "FileView[disp=" + disp + ", etype=" + etype + ", filetype=" + filetype + ", datarep=" + datarep + "]";
    }
}
